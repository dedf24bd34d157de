import { orderTracks, trackLabel, type CaptionTrack } from "../../../../app/domain/captions";

/**
 * The caption tracks the panel offers, as (language key, label) pairs: the domain's order (the page's language
 * first, tracks written by people before automatic ones), one per language key, since the companion takes the
 * track written by people before the automatic one of the same key. "None" is added by the list itself.
 */
export function captionChoices(
  tracks: readonly CaptionTrack[],
  pageLang: string | null | undefined,
): { value: string; label: string }[] {
  const seen = new Set<string>();
  return orderTracks(tracks, pageLang)
    .filter((t) => {
      if (seen.has(t.lang)) return false;
      seen.add(t.lang);
      return true;
    })
    .map((t) => ({ value: t.lang, label: trackLabel(t) }));
}
