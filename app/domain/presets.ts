import { MAX_PRESETS } from "./preset-copy";
import { effectivePlan, PLANS } from "./plans";

export { MAX_PRESETS };

/** Custom presets: who may keep them and how many (./preset-copy). The wire shapes are in ./api. */
export const PRESETS_PLAN_MESSAGE = "Custom presets are part of the Advanced plan.";
export const PRESETS_FULL_MESSAGE = `You can keep at most ${MAX_PRESETS} presets. Delete one to save another.`;
export const PRESET_NAME_TAKEN = "You already have a preset with this name.";

/** The one gate: the plan definition says whether presets are included (Plugin counts as Free). */
export function presetsAllowed(storedPlan: string | null | undefined): boolean {
  return PLANS[effectivePlan(storedPlan)].presets;
}
