import { MAX_PRESETS } from "./preset-copy";

export { MAX_PRESETS };

/** Custom presets: how many a person may keep (./preset-copy); who may keep them is ./effective-plan's rule. The wire shapes are in ./api. */
export const PRESETS_PLAN_MESSAGE = "Custom presets are part of the Advanced plan.";
export const PRESETS_FULL_MESSAGE = `You can keep at most ${MAX_PRESETS} presets. Delete one to save another.`;
export const PRESET_NAME_TAKEN = "You already have a preset with this name.";
