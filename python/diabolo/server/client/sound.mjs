// Optional sounds, off until the person turns them on with the table page's button#sound
// (remembered in localStorage "diabolo.sound"): two rising tones when it is your turn,
// three when something is scored, two falling ones when a move of yours lost a race.
// Made with the Web Audio API, so there is no file to fetch. A page without the button
// (the replay) stays silent. Browsers let a page start audio only after a gesture: the
// AudioContext is made on the click that turns sound on, or, when a page opens with sound
// remembered on, on the person's first click or key.

const KEY = "diabolo.sound";
const TUNES = {
  turn: [660, 880],
  score: [523, 659, 784],
  lost: [440, 311],
};
const STEP = 0.09; // seconds between a tune's tones
const toggle = document.getElementById("sound");
let audio = null;
let quietUntil = 0;

// Read by tests: how often each sound was asked for while sounds were on.
const asked = { turn: 0, score: 0, lost: 0 };
window.diaboloSounds = asked;

function on() {
  return Boolean(toggle) && toggle.getAttribute("aria-pressed") === "true";
}

function wake() {
  if (on() && !audio) audio = new AudioContext();
}

if (toggle) {
  let remembered = false;
  try {
    remembered = localStorage.getItem(KEY) === "on";
  } catch {
    // storage refused (a private window's settings): sounds start off
  }
  toggle.setAttribute("aria-pressed", String(remembered));
  toggle.addEventListener("click", () => {
    const now = !on();
    toggle.setAttribute("aria-pressed", String(now));
    try {
      localStorage.setItem(KEY, now ? "on" : "off");
    } catch {
      // not remembered, but on for this page
    }
    wake();
  });
  for (const type of ["pointerdown", "keydown"]) document.addEventListener(type, wake, true);
}

/** Plays a tune of TUNES if sounds are on; one at a time (a round's end comes with its
 * last scoring). */
export function playSound(name) {
  if (!on()) return;
  asked[name] += 1;
  if (!audio || audio.currentTime < quietUntil) return;
  const start = audio.currentTime;
  for (const [i, frequency] of TUNES[name].entries()) tone(frequency, start + i * STEP);
  quietUntil = start + TUNES[name].length * STEP + 0.1;
}

function tone(frequency, start) {
  const oscillator = audio.createOscillator();
  const gain = audio.createGain();
  oscillator.type = "triangle";
  oscillator.frequency.value = frequency;
  gain.gain.setValueAtTime(0.0001, start);
  gain.gain.exponentialRampToValueAtTime(0.2, start + 0.01);
  gain.gain.exponentialRampToValueAtTime(0.0001, start + STEP * 1.6);
  oscillator.connect(gain).connect(audio.destination);
  oscillator.start(start);
  oscillator.stop(start + STEP * 1.8);
}
