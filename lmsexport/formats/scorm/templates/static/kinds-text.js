/* lmsexport quiz player: typed answers. Short answer, numeric, essay, fill in the blanks.
 *
 * The kind interface is described in kinds-choice.js. Typed text is compared with the
 * accepted answers after NFC, trimming and collapsing spaces (and folding case unless the
 * question says otherwise); `*` is Moodle's wildcard. The first accepted answer that
 * matches, in the order written, gives its credit and its feedback, as in Moodle.
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

  /**
   * A typed number, however the learner writes decimals: "3.14", "3,14", "1,234.5",
   * "1.234,5", "−2" (spaces ignored). A comma is the decimal mark when it is the only
   * separator or comes after the last dot; otherwise commas group thousands.
   */
  function parseNumber(text) {
    let plain = text.replace(/[\s\u00a0\u2009\u202f]/gu, "").replace(/\u2212/gu, "-");
    const comma = plain.lastIndexOf(",");
    const dot = plain.lastIndexOf(".");
    if (comma > dot) plain = plain.replace(/\./g, "").replace(",", ".");
    else if (comma !== -1) plain = plain.replace(/,/g, "");
    return /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(plain) ? Number(plain) : null;
  }

  /** Within the tolerance, with room for binary fractions (0.1 + 0.2). */
  const within = (number, answer) =>
    Math.abs(number - answer.value) <= answer.tolerance + 1e-9 * Math.max(1, Math.abs(answer.value));
  const numberMatch = (question, text) => question.answers.find((answer) => within(parseNumber(text), answer)) || null;

  function numberText(answer) {
    const value = ns.formatNumber(answer.value);
    return answer.tolerance ? `${value} ± ${ns.formatNumber(answer.tolerance)}` : value;
  }

  ns.kinds.numeric = {
    lists: () => ({}),
    hint: () => say("type_number"),
    render: (question, view) => textField(question, view, { inputmode: "decimal", class: "answer-input number" }),
    read(question, form) {
      const result = typed(form, "#answer-input", "type_first");
      if (result.error) return result;
      return parseNumber(result.answer) === null ? { error: "number_expected" } : result;
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
    expected: (question) => ns.textList(full(question.answers).map((answer) => ns.plainText(numberText(answer)))),
    interaction(question, text) {
      const [answer] = full(question.answers);
      return { type: "numeric", response: parseNumber(text),
        correct: [{ value: answer.value, min: answer.value - answer.tolerance, max: answer.value + answer.tolerance }] };
    },
    encode: (text) => text,
    decode: (question, raw) => (isText(raw) && parseNumber(raw) !== null ? raw : null),
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
