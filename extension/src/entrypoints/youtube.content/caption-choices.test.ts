import { describe, expect, it } from "vitest";
import { captionChoices } from "./caption-choices";

describe("the panel's caption tracks", () => {
  it("lists the page's language first, one entry per language key, people's track before the automatic one", () => {
    const tracks = [
      { lang: "de", name: "German", auto: false },
      { lang: "en", name: "English", auto: false },
      { lang: "en", name: "English (auto-generated)", auto: true },
      { lang: "fr", auto: true },
      { lang: "en-orig", name: "English (Original)", auto: true },
    ];
    expect(captionChoices(tracks, "en-GB")).toEqual([
      { value: "en", label: "English" },
      { value: "en-orig", label: "English (Original)" },
      { value: "de", label: "German" },
    ]);
    // A German page: German first; English automatic captions not in the page's language are left out.
    expect(captionChoices(tracks, "de").map((c) => c.value)).toEqual(["de", "en", "en-orig"]);
    expect(captionChoices([], "en")).toEqual([]);
  });
});
