import { DEFAULT_EXTENSION_ID } from "~/domain/extension";

const STEPS = [
  { title: "Build the extension", code: "npm run extension:build" },
  {
    title: "Load it unpacked",
    text: "Chrome or Edge: open chrome://extensions, switch on Developer mode, choose Load unpacked and pick extension/dist/chrome-mv3. Firefox: open about:debugging, This Firefox, Load Temporary Add-on, and pick extension/dist/firefox-mv3/manifest.json.",
  },
  { title: "Start the companion", code: "npx clipcut-companion serve" },
  {
    title: "Sign in and pair",
    text: "Sign in here (the site hands the extension its token), then open the ClipCut extension, paste the pairing token the companion printed into Pairing token, and press Pair.",
  },
] as const;

/** Local mode: the buttons above lead here, the same steps as the README's "Try the extension locally". */
export function TryLocally() {
  return (
    <section id="try-locally" aria-labelledby="try-locally-heading" className="container-page scroll-mt-24 pb-14">
      <div className="card">
        <h2 id="try-locally-heading" className="text-xl font-semibold text-slate-900">
          Try the extension locally
        </h2>
        <p className="mt-2 text-sm text-slate-600">
          This server runs in local mode, so the extension comes from your own build. Its id is{" "}
          <code className="font-mono">{DEFAULT_EXTENSION_ID}</code>, the one this site talks to.
        </p>
        <ol className="mt-4 space-y-4">
          {STEPS.map((step, index) => (
            <li key={step.title} className="text-sm text-slate-700">
              <span className="font-semibold text-slate-900">
                {index + 1}. {step.title}
              </span>
              {"code" in step ? (
                <pre className="mt-1 overflow-x-auto rounded-lg bg-slate-900 px-3 py-2 font-mono text-slate-100">
                  {step.code}
                </pre>
              ) : (
                <p className="mt-1 leading-6">{step.text}</p>
              )}
            </li>
          ))}
        </ol>
      </div>
    </section>
  );
}
