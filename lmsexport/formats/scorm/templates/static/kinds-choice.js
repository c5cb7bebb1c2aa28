/* lmsexport quiz player: choice questions (one or several answers) and true / false.
 *
 * Every kind (here, kinds-text.js, kinds-order.js) is an object in `lmsexport.kinds` with:
 *   lists(q)            lists of ids the player may show in another order ({key: ids});
 *                       `scramble: true` kinds are always reordered (ordering questions)
 *   hint(q)             the instruction under the prompt
 *   render(q, view)     the controls; view = {answer, locked, order(key), announce(text)}
 *   read(q, form)       {answer} from the controls, or {error: message key}
 *   credit(q, answer)   share of the points, 0..1, under the partial policy (player.js
 *                       applies all or nothing), or null for answers a person marks
 *   remarks(q, answer)  the feedback of the options picked / the answers matched
 *   given(q, answer), expected(q)   the learner's and the correct answer, as nodes
 *   interaction(q, answer)          {type, response, correct: [patterns]} for the adapter
 *   encode(answer), decode(q, raw)  the answer in suspend_data and back (null if invalid)
 */
(function (ns) {
  "use strict";

  const { el, rich, say } = ns;

  function choiceList(question, view, choices, type) {
    const picked = view.answer || [];
    const box = el("div", { class: "choices", ...ns.language(question) });
    for (const choice of choices) {
      const shown = view.locked && (choice.correct || picked.includes(choice.id));
      box.append(el("label", { class: "choice" },
        el("input", { type, name: "answer", value: choice.id, checked: picked.includes(choice.id),
          disabled: view.locked }),
        rich("span", choice.text, { class: "choice-text" }),
        shown ? ns.mark(choice.correct) : null));
    }
    return box;
  }

  function checked(question, form, choices) {
    const ids = new Set([...form.querySelectorAll("input[name=answer]:checked")].map((input) => input.value));
    // In the order of the source, whatever order the options were shown in.
    const picked = choices.filter((choice) => ids.has(choice.id)).map((choice) => choice.id);
    return picked.length ? { answer: picked } : { error: "answer_first" };
  }

  const correctIds = (choices) => choices.filter((choice) => choice.correct).map((choice) => choice.id);
  const chosen = (choices, ids) => choices.filter((choice) => ids.includes(choice.id));

  function decodeIds(choices, raw, multiple) {
    const ids = typeof raw === "string" ? raw.split(",").filter((id) => choices.some((c) => c.id === id)) : [];
    return ids.length && (multiple || ids.length === 1) ? ids : null;
  }

  ns.kinds.multiple_choice = {
    lists: (question) => ({ "": question.choices.map((choice) => choice.id) }),
    hint: (question) => say(question.multiple ? "choose_all" : "choose_one"),
    render(question, view) {
      const order = view.order("");
      const choices = order.map((id) => question.choices.find((choice) => choice.id === id));
      return choiceList(question, view, choices, question.multiple ? "checkbox" : "radio");
    },
    read: (question, form) => checked(question, form, question.choices),
    /** All or nothing for one answer; (right - wrong) / correct, at least 0, for several. */
    credit(question, picked) {
      const correct = correctIds(question.choices);
      const right = picked.filter((id) => correct.includes(id)).length;
      if (!question.multiple) return right === 1 && picked.length === 1 ? 1 : 0;
      return Math.max(0, (right - (picked.length - right)) / correct.length);
    },
    remarks: (question, picked) => chosen(question.choices, picked).map((c) => c.feedback).filter(Boolean),
    given: (question, picked) => ns.textList(chosen(question.choices, picked).map((c) => c.text), ns.language(question)),
    expected: (question) => ns.textList(chosen(question.choices, correctIds(question.choices)).map((c) => c.text),
      ns.language(question)),
    interaction: (question, picked) => ({ type: "choice", response: picked, correct: [correctIds(question.choices)] }),
    encode: (picked) => picked.join(","),
    decode: (question, raw) => decodeIds(question.choices, raw, question.multiple),
  };

  /** True and false as two options in the quiz's language, ids "true" and "false". */
  const truth = (question) => [true, false].map((value) => ({
    id: String(value), text: ns.plainText(say(String(value))), correct: question.answer === value,
  }));

  ns.kinds.true_false = {
    lists: () => ({}),
    hint: () => say("choose_one"),
    render: (question, view) => choiceList(question, view, truth(question), "radio"),
    read: (question, form) => checked(question, form, truth(question)),
    credit: (question, picked) => (picked[0] === String(question.answer) ? 1 : 0),
    remarks: () => [],
    given: (question, picked) => ns.textList(chosen(truth(question), picked).map((c) => c.text)),
    expected: (question) => ns.textList([ns.plainText(say(String(question.answer)))]),
    interaction: (question, picked) => ({ type: "true-false", response: picked[0] === "true", correct: [question.answer] }),
    encode: (picked) => picked[0],
    decode: (question, raw) => (raw === "true" || raw === "false" ? [raw] : null),
  };
})(window.lmsexport = window.lmsexport || {});
