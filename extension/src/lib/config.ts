/** Build-time settings (extension/build-config.ts), fixed per build. */
export const SITE_ORIGINS: readonly string[] = __CLIPCUT_CONFIG__.siteOrigins;
export const SITE_ORIGIN: string = __CLIPCUT_CONFIG__.siteOrigins[0] ?? "http://localhost:8787";
export const COMPANION_URL = `http://127.0.0.1:${__CLIPCUT_CONFIG__.companionPort}`;
