/**
 * Bench sounds (WebAudio, no files), so the packer hears the outcome without
 * looking: a short high beep for success, a long low buzz for failure, and one
 * pattern per bench outcome (issue 14 item 6): shipped, queued, needs
 * attention, wrong item, printer problem. Browsers allow audio after a user
 * gesture; a key press on the scan field counts. Failing audio never breaks
 * the flow. The packer can turn sounds off (Settings); the last sound asked
 * for is written to `<html data-last-sound>` for tests and support.
 */
let ctx: AudioContext | null = null;

const SOUND_KEY = 'station.sounds';

/** True unless the packer turned sounds off (Settings; kept in this browser's storage). */
export function soundsOn(): boolean {
  try {
    return localStorage.getItem(SOUND_KEY) !== 'off';
  } catch {
    return true;
  }
}

/** Turns the bench sounds on or off for this browser (Settings › Sounds). */
export function setSoundsOn(on: boolean): void {
  try {
    if (on) localStorage.removeItem(SOUND_KEY);
    else localStorage.setItem(SOUND_KEY, 'off');
  } catch {
    // Storage unavailable: the choice lasts for this page only.
  }
}

/** Records which sound was asked for, then plays it unless sounds are off. */
function play(name: string, notes: () => void): void {
  if (!soundsOn()) return;
  if (typeof document !== 'undefined') document.documentElement.dataset.lastSound = name;
  notes();
}

function tone(freqHz: number, seconds: number, type: OscillatorType, gain: number, delay = 0): void {
  if (delay > 0) {
    setTimeout(() => tone(freqHz, seconds, type, gain), delay);
    return;
  }
  try {
    ctx ??= new AudioContext();
    if (ctx.state === 'suspended') void ctx.resume();
    const osc = ctx.createOscillator();
    const vol = ctx.createGain();
    osc.type = type;
    osc.frequency.value = freqHz;
    const t = ctx.currentTime;
    vol.gain.setValueAtTime(gain, t);
    // Short fade-out: no click at the end.
    vol.gain.setValueAtTime(gain, t + Math.max(0, seconds - 0.03));
    vol.gain.linearRampToValueAtTime(0, t + seconds);
    osc.connect(vol).connect(ctx.destination);
    osc.start(t);
    osc.stop(t + seconds);
  } catch {
    // No audio device, or audio blocked: the banner still shows the outcome.
  }
}

/** Success: 1760 Hz sine, 0.12 s. */
export function beepOk(): void {
  play('ok', () => tone(1760, 0.12, 'sine', 0.25));
}

/** Failure: 140 Hz square, 0.7 s. */
export function buzzError(): void {
  play('error', () => tone(140, 0.7, 'square', 0.2));
}

/** Needs attention but not a failure: two mid beeps. */
export function beepWarn(): void {
  play('warn', () => {
    tone(660, 0.1, 'triangle', 0.25);
    tone(660, 0.1, 'triangle', 0.25, 160);
  });
}

/** The outcomes a packer must tell apart from a metre away (issue 14 item 6). */
export type BenchOutcome = 'shipped' | 'queued' | 'attention' | 'wrong_item' | 'printer';

/**
 * One pattern per outcome, each unlike the others in pitch and rhythm:
 * shipped = two rising high notes; queued = one soft long mid note; attention
 * = two mid beeps; wrong item = three fast low buzzes; printer problem = a
 * falling low-high-low sawtooth.
 */
const OUTCOME_NOTES: Record<BenchOutcome, () => void> = {
  shipped: () => {
    tone(1320, 0.08, 'sine', 0.25);
    tone(1760, 0.12, 'sine', 0.25, 90);
  },
  queued: () => tone(880, 0.35, 'sine', 0.15),
  attention: () => {
    tone(660, 0.1, 'triangle', 0.25);
    tone(660, 0.1, 'triangle', 0.25, 160);
  },
  wrong_item: () => {
    for (let i = 0; i < 3; i++) tone(220, 0.12, 'square', 0.2, i * 170);
  },
  printer: () => {
    tone(440, 0.15, 'sawtooth', 0.15);
    tone(660, 0.15, 'sawtooth', 0.15, 180);
    tone(330, 0.25, 'sawtooth', 0.15, 360);
  },
};

/** Plays the outcome's own pattern (see {@link OUTCOME_NOTES}) unless sounds are off. */
export function playOutcome(outcome: BenchOutcome): void {
  play(outcome, OUTCOME_NOTES[outcome]);
}
