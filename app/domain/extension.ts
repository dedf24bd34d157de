/** How the website, the extension and the companion find each other. */

/** Chrome/Edge extension id used when the admin has stored none in settings (key extension_id). */
export const DEFAULT_EXTENSION_ID = "hpbnfmkjdlcegiaoklnbmhfjgpcodfia";
export const EXTENSION_ID_SETTING = "extension_id";

/** Chrome ids are 32 letters a–p. */
export const CHROME_EXTENSION_ID = /^[a-p]{32}$/;

/** Default port of the local companion server (127.0.0.1 only). */
export const COMPANION_DEFAULT_PORT = 17327;
