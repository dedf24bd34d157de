import { Link } from "@remix-run/react";
import type { ReactNode } from "react";
import { NEW_USER_CREDITS } from "~/domain/credits";

const STEPS: readonly { title: string; body: ReactNode }[] = [
  {
    title: "Add ClipCut to your browser",
    body: "Pick your browser above and select Add. Your browser's store opens; confirm to install, then pin ClipCut to the toolbar.",
  },
  {
    title: "Install the companion, then sign in",
    body: (
      <>
        Run <code className="rounded bg-slate-100 px-1 font-mono text-sm">npx clipcut-companion install</code> once (it
        needs Node.js and FFmpeg): your browser then starts it whenever you clip, with nothing to pair. Sign in, or{" "}
        <Link to="/signup" className="font-semibold text-brand-700 hover:underline">
          create a free account
        </Link>
        . New accounts start with {NEW_USER_CREDITS} credits.
      </>
    ),
  },
  {
    title: "Open a video and cut",
    body: "Set your start and end, preview the loop and press Create clip. The companion cuts it on your computer with FFmpeg and saves it in your Videos folder.",
  },
];

export function InstallSteps() {
  return (
    <ol className="grid gap-6 md:grid-cols-3">
      {STEPS.map((step, index) => (
        <li key={step.title} className="card">
          <span
            className="grid h-10 w-10 place-items-center rounded-full bg-brand-600 font-bold text-white"
            aria-hidden="true"
          >
            {index + 1}
          </span>
          <h3 className="mt-4 text-lg font-semibold text-slate-900">
            <span className="sr-only">Step {index + 1}: </span>
            {step.title}
          </h3>
          <p className="mt-2 leading-7 text-slate-600">{step.body}</p>
        </li>
      ))}
    </ol>
  );
}
