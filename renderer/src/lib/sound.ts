/**
 * Bench sounds (WebAudio, no files): a short high beep for success and a long
 * low buzz for failure, so the packer hears the outcome without looking.
 * Browsers allow audio after a user gesture; a key press on the scan field
 * counts. Failing audio never breaks the flow.
 */
let ctx: AudioContext | null = null;

function tone(freqHz: number, seconds: number, type: OscillatorType, gain: number): void {
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
  tone(1760, 0.12, 'sine', 0.25);
}

/** Failure: 140 Hz square, 0.7 s. */
export function buzzError(): void {
  tone(140, 0.7, 'square', 0.2);
}

/** Needs attention but not a failure: two mid beeps. */
export function beepWarn(): void {
  tone(660, 0.1, 'triangle', 0.25);
  setTimeout(() => tone(660, 0.1, 'triangle', 0.25), 160);
}
