import type { Progress } from "../../../../app/domain/companion";
import type { FfmpegProgress } from "../ffmpeg";

/** Maps ffmpeg's per-step reports onto one 0–100 % with speed and ETA. */
export class ProgressTracker {
  private done = 0;
  private share = 0;
  /** How far the current step got (0–1). */
  private reached = 0;
  /** What the steps planned from now on share: the whole bar, or what a carried step left of it. */
  private rest = 1;
  private readonly began = Date.now();
  lastSpeed: number | null = null;
  private lastEmit = 0;
  constructor(private readonly emit?: (p: Progress) => void) {}
  /** The next step's share of the whole job (0–1). */
  plan(share: number) {
    this.share = share * this.rest;
    this.reached = 0;
  }
  next() {
    this.done = Math.min(1, this.done + this.share);
    this.share = 0;
    this.report(this.done, true);
  }
  /**
   * Ends the current step where it got to, and the steps planned after it share what is left of the bar: a copy's
   * walk that another cut follows (the copy was not taken) is not shown again from 0.
   */
  carry() {
    this.done = Math.min(1, this.done + this.share * this.reached);
    this.share = 0;
    this.rest = 1 - this.done;
  }
  step(mediaSeconds: number, origin: number) {
    return (p: FfmpegProgress) => {
      if (p.speed !== null) this.lastSpeed = p.speed;
      if (p.outTimeSeconds === null || mediaSeconds <= 0) return;
      const fraction = Math.min(1, Math.max(0, (p.outTimeSeconds - origin) / mediaSeconds));
      this.reached = Math.max(this.reached, fraction);
      this.report(this.done + this.share * fraction, false);
    };
  }
  private report(fraction: number, force: boolean) {
    const now = Date.now();
    if (!this.emit || (!force && now - this.lastEmit < 200)) return;
    this.lastEmit = now;
    const elapsed = (now - this.began) / 1000;
    const percent = Math.min(99.9, Math.max(0, fraction * 100));
    const eta = fraction > 0.02 ? (elapsed * (1 - fraction)) / fraction : null;
    this.emit({
      percent: Math.round(percent * 10) / 10,
      speed: this.lastSpeed,
      etaSeconds: eta === null ? null : Math.round(eta * 10) / 10,
    });
  }
}
