/* lmsexport quiz player: the quiz data and the helpers every part of the page uses.
 *
 * Reads the quiz from <script id="quiz-data" type="application/json"> once, and gives the
 * kinds (kinds-*.js) and the flow (player.js) the same small toolbox: interface text,
 * element building, quiz text (plain, or HTML through the sanitiser), numbers in the
 * quiz's language, text comparison as the accepted answers need it, and shuffling.
 */
(function (ns) {
  "use strict";

  const data = JSON.parse(document.getElementById("quiz-data").textContent);
  ns.data = data;
  ns.kinds = {};

  ns.say = function (key, values = {}) {
    return data.messages[key].replace(/\{(\w+)\}/g, (whole, name) => (name in values ? values[name] : whole));
  };

  ns.el = function (tag, attributes = {}, ...children) {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(attributes)) {
      if (value === null || value === undefined || value === false) continue;
      if (name === "text") node.textContent = value;
      else node.setAttribute(name, value === true ? "" : value);
    }
    node.append(...children.filter((child) => child !== null && child !== undefined));
    return node;
  };

  /** Quiz text: plain text as text (line breaks kept by CSS), HTML only through the sanitiser. */
  ns.rich = function (tag, value, attributes = {}) {
    // A text in a language of its own says so; otherwise it takes the language it is given.
    const node = value.lang ? ns.el(tag, { ...attributes, lang: value.lang, dir: value.dir }) : ns.el(tag, attributes);
    if (value.format === "html") {
      node.append(ns.sanitize(value.value));
    } else {
      node.classList.add("plain");
      node.textContent = value.value;
    }
    return node;
  };

  /** The lang and dir attributes of a question in another language than the quiz. */
  ns.language = (question) => ({ lang: question.lang, dir: question.dir });

  /** A list of texts: one as a span, several as a bulleted list; none says "Not answered". */
  ns.textList = function (texts, attributes = {}) {
    if (!texts.length) return ns.el("span", { class: "none", text: ns.say("no_answer") });
    if (texts.length === 1) return ns.rich("span", texts[0], attributes);
    return ns.el("ul", attributes, ...texts.map((text) => ns.rich("li", text)));
  };

  ns.plainText = (value) => ({ value, format: "plain" });

  /**
   * A number as the quiz's language writes it, with the signs of `data.numberFormat` (CLDR,
   * through Babel: the browser may not know the language): at most `fraction` decimals,
   * digits grouped if `grouped` (Hindi 12,34,567: a first group of 3, then groups of 2).
   */
  ns.formatNumber = function (value, fraction = 10, grouped = false) {
    const signs = data.numberFormat;
    const [whole, decimals = ""] = Math.abs(value).toFixed(fraction).split(".");
    let digits = whole;
    if (grouped && whole.length > signs.grouping[0]) {
      const groups = [whole.slice(-signs.grouping[0])];
      for (let end = whole.length - signs.grouping[0]; end > 0; end -= signs.grouping[1]) {
        groups.unshift(whole.slice(Math.max(0, end - signs.grouping[1]), end));
      }
      digits = groups.join(signs.group);
    }
    const rest = decimals.replace(/0+$/u, "");
    const shown = rest ? `${digits}${signs.decimal}${rest}` : digits;
    return value < 0 && Number(shown.replace(/\D/gu, "")) !== 0 ? `${signs.minus}${shown}` : shown;
  };

  /** A share (0..1) as a percentage in the language's pattern (`75,5 %` in Czech, `%75,5` in Turkish). */
  ns.formatPercent = (share, fraction = 1) =>
    `${data.numberFormat.percent[0]}${ns.formatNumber(share * 100, fraction, true)}${data.numberFormat.percent[1]}`;

  /** Typed text as the accepted answers are compared: NFC, trimmed, inner spaces collapsed, case folded if asked. */
  ns.normalize = function (text, caseSensitive, lang) {
    const collapsed = text.normalize("NFC").trim().replace(/\s+/gu, " ");
    return caseSensitive ? collapsed : collapsed.toLocaleLowerCase(lang || data.lang);
  };

  /**
   * Whether typed text matches an accepted answer, as Moodle's short answer compares them:
   * `*` matches any run of characters (none too), `\*` is a star itself.
   */
  ns.matches = function (typed, accepted, caseSensitive, lang) {
    const text = ns.normalize(typed, caseSensitive, lang);
    const pattern = ns.normalize(accepted, caseSensitive, lang);
    const parts = [""];
    for (let i = 0; i < pattern.length; i += 1) {
      if (pattern[i] === "\\" && pattern[i + 1] === "*") {
        parts[parts.length - 1] += "*";
        i += 1;
      } else if (pattern[i] === "*") {
        parts.push("");
      } else {
        parts[parts.length - 1] += pattern[i];
      }
    }
    if (parts.length === 1) return text === parts[0];
    const escaped = parts.map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
    return new RegExp(`^${escaped.join(".*")}$`, "su").test(text);
  };

  /** The first accepted answer the typed text matches, in the order written (as Moodle does), or null. */
  ns.firstMatch = (typed, answers, caseSensitive, lang) =>
    answers.find((answer) => ns.matches(typed, answer.text, caseSensitive, lang)) || null;

  /** Credit (a percentage, -100..100) as a share of the points, never below nothing or above all. */
  ns.share = (credit) => Math.min(1, Math.max(0, credit / 100));

  /** A copy of `items` in a random order; `next` (from ns.seeded) makes the order repeatable. */
  ns.shuffled = function (items, next) {
    const out = items.slice();
    const random = new Uint32Array(out.length);
    if (next) random.forEach((_, index) => { random[index] = next(); });
    else crypto.getRandomValues(random);
    for (let i = out.length - 1; i > 0; i -= 1) {
      const j = random[i] % (i + 1);
      [out[i], out[j]] = [out[j], out[i]];
    }
    return out;
  };

  /** A repeatable stream of 32-bit numbers from `seed` (mulberry32): the same seed, the same draw. */
  ns.seeded = function (seed) {
    let value = seed >>> 0;
    return () => {
      value = (value + 0x6d2b79f5) >>> 0;
      let t = value;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return (t ^ (t >>> 14)) >>> 0;
    };
  };

  /** A new seed for an attempt's draw. */
  ns.newSeed = () => crypto.getRandomValues(new Uint32Array(1))[0];

  /** A select of plain-text options after a "Choose…" placeholder; `chosen` is the selected value. */
  ns.select = function (options, chosen, attributes) {
    const select = ns.el("select", attributes, ns.el("option", { value: "", text: ns.say("choose_placeholder") }));
    for (const option of options) {
      select.append(ns.el("option", { value: option.id, text: option.label, selected: option.id === chosen }));
    }
    return select;
  };

  /** ✓ or ✗ after a part of an answer once it is checked (the words are in the feedback). */
  ns.mark = (right) => ns.el("span", { class: `mark ${right ? "right" : "wrong"}`, "aria-hidden": "true",
    text: right ? "✓" : "✗" });
})(window.lmsexport = window.lmsexport || {});
