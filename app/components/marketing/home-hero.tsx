import { Link } from "@remix-run/react";
import { SITE } from "~/domain/site";
import { ArrowRightIcon } from "./icons";

/** A static picture of the cutter: player, timeline with two handles, export chips. Decorative. */
function HeroVisual() {
  return (
    <div className="relative mx-auto w-full max-w-lg" aria-hidden="true">
      <div className="absolute -inset-4 rounded-[2rem] bg-gradient-to-tr from-brand-200/60 via-white to-sky-100 blur-2xl" />
      <div className="relative rounded-2xl border border-slate-200 bg-white p-4 shadow-2xl shadow-brand-900/10">
        <div className="flex items-center gap-1.5 pb-3">
          <span className="h-2.5 w-2.5 rounded-full bg-red-400" />
          <span className="h-2.5 w-2.5 rounded-full bg-amber-400" />
          <span className="h-2.5 w-2.5 rounded-full bg-emerald-400" />
        </div>
        <div className="relative grid aspect-video place-items-center overflow-hidden rounded-xl bg-gradient-to-br from-slate-800 via-brand-950 to-brand-800">
          <div className="absolute inset-x-0 bottom-0 h-1/2 bg-gradient-to-t from-black/40 to-transparent" />
          <span className="grid h-14 w-14 place-items-center rounded-full bg-white/90 shadow-lg">
            <svg viewBox="0 0 24 24" className="ml-1 h-6 w-6 text-brand-700" fill="currentColor">
              <path d="M7 5v14l12-7z" />
            </svg>
          </span>
        </div>
        <div className="mt-4">
          <div className="relative h-10 rounded-lg bg-slate-100">
            <div className="absolute inset-y-0 left-[28%] right-[30%] rounded-md border-2 border-brand-600 bg-brand-100" />
            <div className="absolute inset-y-[-4px] left-[28%] w-2.5 -translate-x-1/2 rounded bg-brand-600 shadow" />
            <div className="absolute inset-y-[-4px] right-[30%] w-2.5 translate-x-1/2 rounded bg-brand-600 shadow" />
            <div className="absolute inset-y-1 left-[45%] w-0.5 rounded bg-slate-900" />
          </div>
          <div className="mt-2 flex justify-between text-xs font-medium text-slate-600">
            <span>00:42</span>
            <span>Clip length 00:35</span>
            <span>01:17</span>
          </div>
        </div>
        <div className="mt-4 flex flex-wrap gap-2 text-xs font-semibold">
          <span className="rounded-full bg-brand-600 px-3 py-1 text-white">MP4</span>
          <span className="rounded-full bg-slate-100 px-3 py-1 text-slate-700">MP3</span>
          <span className="rounded-full bg-slate-100 px-3 py-1 text-slate-700">1080p</span>
          <span className="ml-auto rounded-full bg-emerald-100 px-3 py-1 text-emerald-800">Ready to export</span>
        </div>
      </div>
    </div>
  );
}

export function HomeHero() {
  return (
    <section className="relative overflow-hidden bg-gradient-to-b from-brand-50 via-white to-white">
      <div className="container-page grid items-center gap-12 py-16 sm:py-20 lg:grid-cols-2 lg:py-24">
        <div className="text-center lg:text-left">
          <p className="inline-flex items-center gap-2 rounded-full border border-brand-200 bg-white px-3 py-1 text-sm font-medium text-brand-700">
            Trusted by {SITE.stats.creators} creators
          </p>
          <h1 className="mt-5 text-4xl font-extrabold tracking-tight text-slate-900 sm:text-5xl lg:text-6xl">
            Cut the perfect clip from <span className="text-brand-600">any video</span>
          </h1>
          <p className="mx-auto mt-6 max-w-xl text-lg leading-8 text-slate-600 lg:mx-0">
            Trim and download high-quality video and audio clips in seconds. Set your start and end, preview the cut,
            and export MP4, MKV, MP3 or WAV in up to 4K, right from your browser.
          </p>
          <div className="mt-8 flex flex-wrap justify-center gap-3 lg:justify-start">
            <Link to="/download" className="btn-primary px-6 py-3 text-base">
              Create your clips
              <ArrowRightIcon />
            </Link>
            <Link to="/clip" className="btn-secondary px-6 py-3 text-base">
              Try the Video Cutter
            </Link>
          </div>
          <p className="mt-4 text-sm text-slate-600">Free plan with 100 credits. No credit card needed.</p>
        </div>
        <HeroVisual />
      </div>
    </section>
  );
}
