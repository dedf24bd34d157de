/** Custom presets (issue 18): who may keep them and how many. The wire shapes are in ./api. */
export const MAX_PRESETS = 50;
export const PRESETS_PLAN_MESSAGE = "Custom presets are part of the Advanced plan.";
export const PRESETS_FULL_MESSAGE = `You can keep at most ${MAX_PRESETS} presets. Delete one to save another.`;
export const PRESET_NAME_TAKEN = "You already have a preset with this name.";
