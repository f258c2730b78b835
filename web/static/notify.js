/* "Your turn", noticed from another tab: the tab title and the favicon say it; when the turn comes while the tab is
   hidden, an optional sound and (if the browser allows it) a notification. The two choices are kept in
   localStorage; the page asks for the notification permission only when its box is ticked. */
import {t} from "./i18n.js";

const $ = (id) => document.getElementById(id);
const SOUND = "burrow:sound";
const NOTIFY = "burrow:notify";
const baseTitle = document.title;
const icon = document.querySelector("link[rel=icon]");
const baseIcon = icon ? icon.getAttribute("href") : null;
const turnIcon = baseIcon ? baseIcon.replace(/favicon\.svg$/, "favicon-turn.svg") : null;
let wasTurn = false;

function stored(key) {
  try {
    return localStorage.getItem(key) === "yes";
  } catch (err) {
    return false;
  }
}

function store(key, on) {
  try {
    if (on) localStorage.setItem(key, "yes");
    else localStorage.removeItem(key);
  } catch (err) {
    // No storage: the choice lasts as long as the page.
  }
}

function beep() {
  const Context = window.AudioContext || window.webkitAudioContext;
  if (!Context) return;
  try {
    const audio = new Context();
    const tone = audio.createOscillator();
    const gain = audio.createGain();
    tone.frequency.value = 660;
    gain.gain.setValueAtTime(0.15, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.4);
    tone.connect(gain).connect(audio.destination);
    tone.start();
    tone.stop(audio.currentTime + 0.4);
  } catch (err) {
    // Audio refused (no user gesture yet): the title and the icon still say it.
  }
}

function notify(text) {
  if (!$("notify-turn") || !$("notify-turn").checked) return;
  if (!window.Notification || Notification.permission !== "granted") return;
  try {
    const note = new Notification(t("Burrow: your turn"), {body: text, tag: "burrow-turn"});
    note.onclick = () => window.focus();
  } catch (err) {
    // Some browsers only notify from a service worker: the title and the icon still say it.
  }
}

/** The turn state changed: ``yourTurn`` (a seat of this page must act), ``text`` what to say; ``other`` whose
    turn it is otherwise ("Bo (Gauls) to play", "Game over"), for the title. */
function update(yourTurn, text, other) {
  document.title = yourTurn ? t("▶ Your turn — {title}", {title: baseTitle})
    : other ? `${other} — ${baseTitle}` : baseTitle;
  if (icon && turnIcon) icon.setAttribute("href", yourTurn ? turnIcon : baseIcon);
  if (yourTurn && !wasTurn && document.hidden) {
    if ($("sound-turn") && $("sound-turn").checked) beep();
    notify(text);
  }
  wasTurn = yourTurn;
}

function bind() {
  const sound = $("sound-turn");
  const box = $("notify-turn");
  if (sound) {
    sound.checked = stored(SOUND);
    sound.addEventListener("change", () => store(SOUND, sound.checked));
  }
  if (box) {
    if (!window.Notification) {
      box.disabled = true;
      box.closest("label").title = t("This browser has no notifications.");
    }
    box.checked = stored(NOTIFY) && Boolean(window.Notification) && Notification.permission === "granted";
    box.addEventListener("change", async () => {
      store(NOTIFY, box.checked);
      if (box.checked && Notification.permission !== "granted") {
        const answer = await Notification.requestPermission();
        if (answer !== "granted") {
          box.checked = false;
          store(NOTIFY, false);
          const note = $("notify-note");
          if (note) note.textContent = t("The browser refused notifications; the tab title still shows your turn.");
        }
      }
    });
  }
}

bind();
export {update};
