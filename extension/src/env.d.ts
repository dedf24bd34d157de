/** Build-time settings, see extension/build-config.ts. */
declare const __CLIPCUT_CONFIG__: { siteOrigins: string[]; companionPort: number };
