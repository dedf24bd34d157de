const STEPS = [
  { title: "Paste a link", text: "Copy a video's address from YouTube and paste it above." },
  { title: "Set start and end", text: "Drag the handles or type exact times, then preview the loop." },
  { title: "Create your clip", text: "Choose MP4, MP3 or GIF and a quality, and export with the extension." },
] as const;

/** Shown before a video is loaded. */
export function ClipIntro() {
  return (
    <ol className="grid gap-4 sm:grid-cols-3">
      {STEPS.map((step, index) => (
        <li key={step.title} className="rounded-2xl border border-dashed border-slate-300 p-5">
          <span className="text-sm font-semibold text-brand-700">Step {index + 1}</span>
          <h2 className="mt-1 font-semibold text-slate-900">{step.title}</h2>
          <p className="mt-1 text-sm leading-6 text-slate-600">{step.text}</p>
        </li>
      ))}
    </ol>
  );
}
