import { useEffect, useState } from "react";
import { browser } from "wxt/browser";
import { SITE_ORIGIN } from "../../lib/config";

/** The site patterns of this build's manifest (Firefox lists them without a port). */
const origins = () => browser.runtime.getManifest().host_permissions ?? [];

/**
 * Firefox lets the user withhold or take back an extension's access to a site. Without access to ClipCut's site the
 * sign-in never reaches the extension, so the popup says so and asks, with a button (the request needs a click).
 */
export function SiteAccess() {
  const [granted, setGranted] = useState<boolean | null>(null);
  useEffect(() => {
    void browser.permissions.contains({ origins: origins() }).then(setGranted, () => setGranted(true));
  }, []);
  if (granted !== false) return null;
  const site = new URL(SITE_ORIGIN).host;
  return (
    <section aria-labelledby="site-access-heading" className="space-y-2 rounded-xl bg-amber-50 p-3">
      <h2 id="site-access-heading" className="text-sm font-semibold text-amber-900">
        Allow ClipCut on {site}
      </h2>
      <p className="text-sm text-amber-900">
        The extension needs your permission to talk to the ClipCut website at {site}. Without it, signing in on the
        website does not reach the extension.
      </p>
      <button
        type="button"
        className="btn-primary w-full"
        onClick={() => void browser.permissions.request({ origins: origins() }).then(setGranted)}
      >
        Allow access to {site}
      </button>
    </section>
  );
}
