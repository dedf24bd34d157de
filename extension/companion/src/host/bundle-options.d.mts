import type { BuildOptions } from "esbuild";

export declare const CLI_BUNDLE_OPTIONS: Readonly<
  Required<Pick<BuildOptions, "bundle" | "platform" | "target" | "format" | "external" | "logLevel">>
>;

export declare const DEV_BUILD_DEFINE: Readonly<
  Record<"__CLIPCUT_DEV_BUILD__" | "__CLIPCUT_STORE_EXTENSION_IDS__", string>
>;
