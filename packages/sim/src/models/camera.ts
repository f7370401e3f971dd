import type { Random } from '../random';
import type { Environment } from './environment';
import { SteppedModel, clamp, round, type CommandOutcome, type SimValues } from './physics-model';

/** Camera: recording, infrared night mode in the dark, the scene brightness it measures. */
export class CameraModel extends SteppedModel {
  private recording = true;
  private storageFree: number;

  constructor(
    private readonly env: Environment,
    random: Random,
    start: number,
  ) {
    super(start);
    this.storageFree = random.between(20, 90);
  }

  protected step(_now: number, dt: number): void {
    if (!this.recording) return;
    // The recorder overwrites the oldest footage when full.
    this.storageFree -= (0.3 * dt) / 3600;
    if (this.storageFree < 5) this.storageFree = 40;
  }

  override command(name: string): CommandOutcome | undefined {
    if (name === 'startRecording' || name === 'stopRecording') {
      this.recording = name === 'startRecording';
      return { ok: true };
    }
    if (name === 'snapshot' || name === 'gotoPreset') return { ok: true };
    return undefined;
  }

  values(): SimValues {
    const light = this.env.radiation(this.time);
    return {
      recording: this.recording,
      nightMode: light < 20,
      brightness: Math.round(clamp(light / 10, 0, 100)),
      storageFree: round(this.storageFree, 1),
    };
  }
}
