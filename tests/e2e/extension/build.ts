// `npm test`: builds the extension once for the browser suites' ports (Chromium and Firefox), before they start.
import { buildExtension } from "./parts";

buildExtension("chrome");
buildExtension("firefox");
