/* lmsexport quiz player: typed answers. Short answer, numeric, essay, fill in the blanks.
 *
 * The kind interface is described in kinds-choice.js. Typed text is compared with the
 * accepted answers after NFC, trimming and collapsing spaces (and folding case unless the
 * question says otherwise); `*` is Moodle's wildcard. The first accepted answer that
 * matches, in the order written, gives its credit and its feedback, as in Moodle. A typed
 * number is read by the rules of lmsexport/numbers.py, with the signs its data carries.
 */
(function (ns) {
  "use strict";

  const { el, rich, say } = ns;
  const full = (answers) => answers.filter((answer) => answer.credit === 100);
  const isText = (raw) => typeof raw === "string" && raw.trim() !== "";

  function typed(form, selector, error) {
    const value = form.querySelector(selector).value.trim();
    return value ? { answer: value } : { error };
  }

  function textField(question, view, attributes) {
    return el("input", { type: "text", id: "answer-input", class: "answer-input", "aria-labelledby": "prompt",
      "aria-describedby": "hint error", autocomplete: "off", spellcheck: "false", value: view.answer || null,
      disabled: view.locked, ...ns.language(question), ...attributes });
  }

  ns.kinds.short_answer = {
    lists: () => ({}),
    hint: () => say("type_answer"),
    render: (question, view) => textField(question, view, {}),
    read: (question, form) => typed(form, "#answer-input", "type_first"),
    credit(question, text) {
      const match = ns.firstMatch(text, question.answers, question.caseSensitive, question.lang);
      return match ? ns.share(match.credit) : 0;
    },
    remarks(question, text) {
      const match = ns.firstMatch(text, question.answers, question.caseSensitive, question.lang);
      return match && match.feedback ? [match.feedback] : [];
    },
    given: (question, text) => rich("span", ns.plainText(text), ns.language(question)),
    expected: (question) => ns.textList(full(question.answers).map((a) => ns.plainText(a.text)), ns.language(question)),
    interaction: (question, text) => ({ type: "fill-in", response: [text], caseMatters: Boolean(question.caseSensitive),
      correct: full(question.answers).map((answer) => [answer.text]) }),
    encode: (text) => text,
    decode: (question, raw) => (isText(raw) ? raw : null),
  };

  /* ---- Numbers: read as the question's language writes them ---- */

  const BIDI = /[\u200e\u200f\u061c\u202a-\u202e\u2066-\u2069]/gu;

  /** The typed text without the question's unit at its end (the learner may type it or not). */
  function withoutUnit(question, text) {
    const spelling = (question.units || []).find((unit) => text.endsWith(unit));
    return spelling ? text.slice(0, -spelling.length).trim() : text;
  }

  /** Digits 0-9 for the digits of any one script among the language's (`zeros`: their 0); null for two scripts. */
  function asciiDigits(text, zeros) {
    const starts = [48, ...Array.from(zeros, (zero) => zero.codePointAt(0))];
    let script = null;
    let out = "";
    for (const char of text) {
      const code = char.codePointAt(0);
      const zero = starts.find((start) => code >= start && code <= start + 9);
      if (zero === undefined) {
        out += char;
        continue;
      }
      if (script !== null && script !== zero) return null;
      script = zero;
      out += String(code - zero);
    }
    return { text: out, native: script !== null && script !== 48 };
  }

  /** Whether digit runs are a grouped whole number (numbers.py `_grouped`). */
  function grouped(runs, marks, sizes) {
    const kinds = new Set(marks.map((mark) => (/\s/u.test(mark) ? " " : mark)));
    const [first, ...rest] = runs;
    const last = rest.pop();
    if (kinds.size !== 1 || first.startsWith("0")) return false;
    return [sizes, [3, 3]].some(([primary, secondary]) => last.length === primary
      && rest.every((run) => run.length === secondary) && first.length >= 1 && first.length <= secondary);
  }

  /** Digits and marks read with one set of signs (numbers.py `_value`); null if they cannot be. */
  function valueOf(body, signs, sizes) {
    const runs = body.split(/\D/u);
    const marks = body.match(/\D/gu) || [];
    if (marks.some((mark) => mark !== signs.decimal && !signs.groups.includes(mark))) return null;
    const decimals = marks.flatMap((mark, index) => (mark === signs.decimal ? [index] : []));
    if (decimals.length > 1 || (decimals.length && decimals[0] !== marks.length - 1)) return null;
    const whole = decimals.length ? runs.slice(0, -1) : runs;
    const fraction = decimals.length ? runs[runs.length - 1] : "";
    if (whole.length > 1 && !grouped(whole, marks.slice(0, whole.length - 1), sizes)) return null;
    if (!(whole.join("") + fraction)) return null;
    return Number(`${whole.join("") || "0"}.${fraction || "0"}`);
  }

  /** The sign, the digits and marks, and the power of ten (`e23`) of a number; a null body if the exponent is bad. */
  function parts(text, minus) {
    const signOf = (char) => (minus.includes(char) ? -1 : char === "+" ? 1 : 0);
    let body = text;
    const sign = signOf(body[0]) || 1;
    if (signOf(body[0])) body = body.slice(1);
    const at = Math.max(body.lastIndexOf("e"), body.lastIndexOf("E"));
    if (at <= 0) return [sign, body, 0];
    let tail = body.slice(at + 1);
    const factor = signOf(tail[0]) || 1;
    if (signOf(tail[0])) tail = tail.slice(1);
    return /^\d+$/u.test(tail) ? [sign, body.slice(0, at), factor * Number(tail)] : [sign, null, 0];
  }

  /**
   * A typed number as the question's language writes it, with the signs and rules of
   * lmsexport/numbers.py (`question.numbers`): the language's own signs first, else a dot or a
   * comma as the decimal sign (a mark that reads two ways is then a decimal sign); its own
   * digits as well as 0-9; the unit optional. Null if the text is no number.
   */
  function readNumber(question, text) {
    const numbers = question.numbers;
    const plain = withoutUnit(question, text.normalize("NFC").replace(BIDI, "").trim());
    const digits = asciiDigits(plain, numbers.zeros);
    if (!digits) return null;
    const [sign, body, power] = parts(digits.text, numbers.minus);
    if (body === null) return null;
    const own = digits.native ? numbers.native : numbers.latin;
    let value = valueOf(body, own, numbers.sizes);
    if (value === null) {
      const readings = numbers.fallbacks.filter((signs) => signs.decimal !== own.decimal || signs.groups !== own.groups)
        .map((signs) => ({ signs, value: valueOf(body, signs, numbers.sizes) })).filter((r) => r.value !== null);
      const chosen = new Set(readings.map((r) => r.value)).size > 1
        ? readings.find((r) => body.includes(r.signs.decimal)) : readings[0];
      value = chosen ? chosen.value : null;
    }
    return value === null ? null : sign * value * 10 ** power;
  }
  ns.readNumber = readNumber;

  /** Within the tolerance, with room for binary fractions (0.1 + 0.2). */
  const within = (number, answer) =>
    Math.abs(number - answer.value) <= answer.tolerance + 1e-9 * Math.max(1, Math.abs(answer.value));
  const numberMatch = (question, text) =>
    question.answers.find((answer) => within(readNumber(question, text), answer)) || null;

  function numberText(question, answer) {
    const value = ns.formatNumber(answer.value);
    const unit = question.unit ? ` ${question.unit}` : "";
    return answer.tolerance ? `${value}${unit} ± ${ns.formatNumber(answer.tolerance)}` : `${value}${unit}`;
  }

  function numberField(question, view) {
    const field = textField(question, view, { inputmode: "decimal", class: "answer-input number",
      "aria-describedby": question.unit ? "hint error answer-unit" : "hint error" });
    if (!question.unit) return field;
    return el("span", { class: "number-entry" }, field, " ",
      el("span", { id: "answer-unit", class: "unit", text: question.unit, ...ns.language(question) }));
  }

  ns.kinds.numeric = {
    lists: () => ({}),
    hint: () => say("type_number"),
    render: numberField,
    read(question, form) {
      const result = typed(form, "#answer-input", "type_first");
      if (result.error) return result;
      return readNumber(question, result.answer) === null ? { error: "number_expected" } : result;
    },
    credit(question, text) {
      const match = numberMatch(question, text);
      return match ? ns.share(match.credit) : 0;
    },
    remarks(question, text) {
      const match = numberMatch(question, text);
      return match && match.feedback ? [match.feedback] : [];
    },
    given: (question, text) => el("span", { text }),
    expected: (question) => ns.textList(full(question.answers)
      .map((answer) => ns.plainText(numberText(question, answer)))),
    interaction(question, text) {
      const [answer] = full(question.answers);
      return { type: "numeric", response: readNumber(question, text),
        correct: [{ value: answer.value, min: answer.value - answer.tolerance, max: answer.value + answer.tolerance }] };
    },
    encode: (text) => text,
    decode: (question, raw) => (isText(raw) && readNumber(question, raw) !== null ? raw : null),
  };

  ns.kinds.essay = {
    lists: () => ({}),
    hint: () => say("write_answer"),
    render: (question, view) => el("textarea", { id: "answer-input", class: "answer-input", rows: question.lines,
      "aria-labelledby": "prompt", "aria-describedby": "hint error", disabled: view.locked, ...ns.language(question),
      text: view.answer || "" }),
    read: (question, form) => typed(form, "#answer-input", "type_first"),
    credit: () => null,
    remarks: () => [],
    given: (question, text) => rich("div", ns.plainText(text), { class: "essay", ...ns.language(question) }),
    expected: () => null,
    interaction: (question, text) => ({ type: "long-fill-in", response: text, correct: [] }),
    encode: (text) => text,
    decode: (question, raw) => (isText(raw) ? raw : null),
  };

  /* ---- Fill in the blanks: text fields and drop-downs inside the sentence ---- */

  const gapsOf = (question) => question.segments.filter((segment) => segment.gap);

  function gapCredit(question, gap, value) {
    if (!value) return 0;
    if (gap.choices) return gap.choices.some((choice) => choice.id === value && choice.correct) ? 1 : 0;
    const match = ns.firstMatch(value, gap.answers, question.caseSensitive, question.lang);
    return match ? ns.share(match.credit) : 0;
  }

  function gapRemark(question, gap, value) {
    if (!value) return null;
    if (gap.choices) return (gap.choices.find((choice) => choice.id === value) || {}).feedback || null;
    const match = ns.firstMatch(value, gap.answers, question.caseSensitive, question.lang);
    return match ? match.feedback || null : null;
  }

  /** What a gap holds as words: the typed text, or the label of the choice picked. */
  function gapWords(gap, value) {
    if (!value) return "";
    return gap.choices ? gap.choices.find((choice) => choice.id === value).label : value;
  }

  const gapKey = (gap) => (gap.choices ? gap.choices.find((choice) => choice.correct).id : full(gap.answers)[0].text);

  function gapControl(question, gap, number, view) {
    const value = (view.answer || {})[gap.gap] || "";
    const label = say("blank", { number });
    const attributes = { class: "gap", name: gap.gap, "aria-label": label, title: label, disabled: view.locked };
    const control = gap.choices
      ? ns.select(view.order(gap.gap).map((id) => gap.choices.find((choice) => choice.id === id)), value, attributes)
      : el("input", { ...attributes, type: "text", autocomplete: "off", spellcheck: "false", value: value || null });
    return view.locked ? [control, ns.mark(gapCredit(question, gap, value) === 1)] : [control];
  }

  /** The sentence with each gap filled by `fill(gap, number)` (controls, or answers as text). */
  function sentence(question, fill, attributes) {
    let number = 0;
    const parts = question.segments.map((segment) => {
      if (!segment.gap) return rich("span", segment.text);
      number += 1;
      return el("span", { class: "gapped" }, ...fill(segment, number));
    });
    return el("div", { ...attributes, ...ns.language(question) }, ...parts);
  }

  function filled(question, values) {
    return sentence(question, (gap) => [el("strong", { class: "filled", text: gapWords(gap, values[gap.gap]) || "___" })],
      { class: "sentence" });
  }

  ns.kinds.fill_blanks = {
    ownPrompt: true,
    lists: (question) => Object.fromEntries(gapsOf(question).filter((gap) => gap.choices)
      .map((gap) => [gap.gap, gap.choices.map((choice) => choice.id)])),
    hint: () => say("fill_blanks"),
    render: (question, view) => sentence(question, (gap, number) => gapControl(question, gap, number, view),
      { id: "prompt", class: "prompt sentence" }),
    read(question, form) {
      const answer = {};
      for (const control of form.querySelectorAll(".gap")) {
        if (control.value.trim()) answer[control.name] = control.value.trim();
      }
      return Object.keys(answer).length ? { answer } : { error: "blank_first" };
    },
    /** Each blank an equal share: its answer's credit, or all of it for the right choice. */
    credit(question, values) {
      const gaps = gapsOf(question);
      return gaps.reduce((sum, gap) => sum + gapCredit(question, gap, values[gap.gap]), 0) / gaps.length;
    },
    remarks: (question, values) => gapsOf(question).map((gap) => gapRemark(question, gap, values[gap.gap]))
      .filter(Boolean),
    given: (question, values) => filled(question, values),
    expected: (question) => filled(question, Object.fromEntries(gapsOf(question).map((gap) => [gap.gap, gapKey(gap)]))),
    interaction: (question, values) => ({
      type: "fill-in", caseMatters: Boolean(question.caseSensitive),
      response: gapsOf(question).map((gap) => gapWords(gap, values[gap.gap])),
      correct: [gapsOf(question).map((gap) => gapWords(gap, gapKey(gap)))],
    }),
    encode: (values) => values,
    decode(question, raw) {
      if (!raw || typeof raw !== "object") return null;
      const answer = {};
      for (const gap of gapsOf(question)) {
        const value = raw[gap.gap];
        const valid = gap.choices ? gap.choices.some((choice) => choice.id === value) : isText(value);
        if (valid) answer[gap.gap] = value;
      }
      return Object.keys(answer).length ? answer : null;
    },
  };
})(window.lmsexport = window.lmsexport || {});
