/* lmsexport quiz player: shows the quiz, scores it and reports to the LMS.
 *
 * The quiz comes from <script id="quiz-data" type="application/json">; the SCORM version's
 * adapter (scorm12.js or scorm2004.js) is `lmsexport.runtime`. Opened outside an LMS, the
 * quiz still runs and scores, and says that nothing is saved. One question at a time: an
 * answer is final once checked (feedback "immediate") or once the learner moves on
 * (feedback "end"). Each answer becomes one interaction followed by a commit, and
 * suspend_data carries the answers (and any shuffled order) so a learner can resume.
 */
(function (ns) {
  "use strict";

  const data = JSON.parse(document.getElementById("quiz-data").textContent);
  const runtime = ns.runtime;
  const questions = data.questions;
  const byId = new Map(questions.map((question) => [question.id, question]));
  const numbers = new Intl.NumberFormat(data.lang, { maximumFractionDigits: 2 });
  const percents = new Intl.NumberFormat(data.lang, { style: "percent", maximumFractionDigits: 1 });
  const stage = document.getElementById("stage");
  const STATE_VERSION = 1;

  function say(key, values = {}) {
    return data.messages[key].replace(/\{(\w+)\}/g, (whole, name) => (name in values ? values[name] : whole));
  }

  /* ---- State, suspend_data and scoring ---- */

  function shuffled(items) {
    const out = items.slice();
    const random = new Uint32Array(out.length);
    crypto.getRandomValues(random);
    for (let i = out.length - 1; i > 0; i -= 1) {
      const j = random[i] % (i + 1);
      [out[i], out[j]] = [out[j], out[i]];
    }
    return out;
  }

  function freshState() {
    const orders = {};
    if (data.shuffle) {
      for (const question of questions) orders[question.id] = shuffled(question.choices.map((c) => c.id));
    }
    return { index: 0, answers: {}, orders };
  }

  /** Compact JSON: {"v":1,"i":3,"a":{"q1":"a","q3":"a,c"},"o":{"q1":"c,a,b"}}. */
  function serialize(withOrders) {
    const join = (table) => Object.fromEntries(Object.entries(table).map(([id, ids]) => [id, ids.join(",")]));
    const saved = { v: STATE_VERSION, i: state.index, a: join(state.answers) };
    if (withOrders && data.shuffle) saved.o = join(state.orders);
    return JSON.stringify(saved);
  }

  /** suspend_data within the version's limit: without the orders if need be, else nothing. */
  function suspendData() {
    let out = serialize(true);
    if (out.length > runtime.suspendLimit) out = serialize(false);
    return out.length > runtime.suspendLimit ? null : out;
  }

  function restore(raw) {
    let saved;
    try {
      saved = JSON.parse(raw);
    } catch (error) {
      return null;
    }
    if (!saved || saved.v !== STATE_VERSION || typeof saved.a !== "object" || saved.a === null) return null;
    const restored = freshState();
    const ids = (question, value) => (typeof value === "string" ? value.split(",") : [])
      .filter((id) => question.choices.some((choice) => choice.id === id));
    for (const [id, value] of Object.entries(saved.a)) {
      const question = byId.get(id);
      const picked = question ? ids(question, value) : [];
      if (picked.length) restored.answers[id] = picked;
    }
    for (const [id, value] of Object.entries(data.shuffle && saved.o ? saved.o : {})) {
      const question = byId.get(id);
      const order = question ? ids(question, value) : [];
      const complete = question && order.length === question.choices.length && new Set(order).size === order.length;
      if (complete) restored.orders[id] = order;
    }
    restored.index = Number.isInteger(saved.i) ? Math.max(0, Math.min(saved.i, questions.length)) : 0;
    return restored;
  }

  const correctIds = (question) => question.choices.filter((choice) => choice.correct).map((choice) => choice.id);

  /** Share of the points earned: all or nothing for one answer; (right - wrong) / correct for several. */
  function credit(question, picked) {
    const correct = correctIds(question);
    const right = picked.filter((id) => correct.includes(id)).length;
    if (!question.multiple) return right === 1 && picked.length === 1 ? 1 : 0;
    return Math.max(0, (right - (picked.length - right)) / correct.length);
  }

  function verdict(question, picked) {
    const share = credit(question, picked || []);
    return share === 1 ? "correct" : share > 0 ? "partly_correct" : "incorrect";
  }

  function totals() {
    let earned = 0;
    let max = 0;
    for (const question of questions) {
      max += question.points;
      if (state.answers[question.id]) earned += credit(question, state.answers[question.id]) * question.points;
    }
    const percent = max > 0 ? (earned / max) * 100 : 100;
    const passed = passMark === null ? null : earned * 100 >= passMark * max - 1e-9;
    return { earned, max, percent, passed };
  }

  /* ---- Building the page ---- */

  function el(tag, attributes = {}, ...children) {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(attributes)) {
      if (value === null || value === undefined || value === false) continue;
      if (name === "text") node.textContent = value;
      else node.setAttribute(name, value === true ? "" : value);
    }
    node.append(...children.filter((child) => child !== null && child !== undefined));
    return node;
  }

  /** Quiz text: plain text as text (line breaks kept by CSS), HTML only through the sanitiser. */
  function rich(tag, value, attributes = {}) {
    // A text in a language of its own says so; otherwise it takes the language it is given.
    const node = value.lang ? el(tag, { ...attributes, lang: value.lang, dir: value.dir }) : el(tag, attributes);
    if (value.format === "html") {
      node.append(ns.sanitize(value.value));
    } else {
      node.classList.add("plain");
      node.textContent = value.value;
    }
    return node;
  }

  function answerText(question, ids) {
    const chosen = question.choices.filter((choice) => ids.includes(choice.id));
    const language = { lang: question.lang, dir: question.dir };
    if (!chosen.length) return el("span", { class: "none", text: say("no_answer") });
    if (chosen.length === 1) return rich("span", chosen[0].text, language);
    return el("ul", language, ...chosen.map((choice) => rich("li", choice.text)));
  }

  function answerList(question, picked) {
    return el("dl", { class: "answers" },
      el("dt", { text: say("your_answer") }), el("dd", {}, answerText(question, picked || [])),
      el("dt", { text: say("correct_answer") }), el("dd", {}, answerText(question, correctIds(question))));
  }

  function explanation(question) {
    if (!question.explanation) return null;
    return el("div", { class: "explanation" },
      el("h3", { text: say("explanation") }),
      rich("div", question.explanation, { lang: question.lang, dir: question.dir }));
  }

  function feedback(question, picked) {
    const result = verdict(question, picked);
    const remarks = question.choices
      .filter((choice) => picked.includes(choice.id) && choice.feedback)
      .map((choice) => rich("div", choice.feedback, { class: "remark", lang: question.lang, dir: question.dir }));
    return el("div", { id: "feedback", class: `feedback ${result}` },
      el("p", { class: "verdict" }, el("strong", { text: say(result) })),
      result === "correct" ? null : answerList(question, picked),
      ...remarks,
      explanation(question));
  }

  function showNotice(message, alert = false) {
    const notice = document.getElementById("notice");
    notice.textContent = message;
    notice.hidden = false;
    if (alert) notice.setAttribute("role", "alert");
  }

  function announce(message) {
    const announcer = document.getElementById("announcer");
    announcer.textContent = "";
    // A fresh text node after clearing makes screen readers read a repeated message again.
    requestAnimationFrame(() => { announcer.textContent = message; });
  }

  function orderOf(question) {
    const order = state.orders[question.id];
    return order ? order.map((id) => question.choices.find((choice) => choice.id === id)) : question.choices;
  }

  function buttonLabel(answered) {
    const last = state.index === questions.length - 1;
    if (data.feedback === "immediate" && !answered) return say("check");
    return say(last ? "finish" : "next");
  }

  /** The current question; `focus` is "heading" after moving on, "button" after checking. */
  function showQuestion(focus) {
    const question = questions[state.index];
    const picked = state.answers[question.id] || null;
    const language = { lang: question.lang, dir: question.dir };
    const heading = el("h2", { id: "question-heading", tabindex: "-1",
      text: say("question_of", { number: state.index + 1, total: questions.length }) });
    const choices = el("div", { class: "choices", ...language });
    for (const choice of orderOf(question)) {
      const mark = picked && (choice.correct ? "✓" : picked.includes(choice.id) ? "✗" : null);
      choices.append(el("label", { class: "choice" },
        el("input", { type: question.multiple ? "checkbox" : "radio", name: "answer", value: choice.id,
          checked: Boolean(picked && picked.includes(choice.id)), disabled: Boolean(picked) }),
        rich("span", choice.text, { class: "choice-text" }),
        mark ? el("span", { class: `mark ${choice.correct ? "right" : "wrong"}`, "aria-hidden": "true", text: mark }) : null));
    }
    const error = el("p", { id: "error", class: "error", hidden: true });
    const button = el("button", { type: "submit", class: "primary", text: buttonLabel(Boolean(picked)) });
    const form = el("form", { class: "question", novalidate: true },
      heading,
      el("progress", { max: questions.length, value: state.index, "aria-hidden": "true" }),
      el("fieldset", { "aria-labelledby": "prompt", "aria-describedby": "hint error" },
        rich("div", question.prompt, { id: "prompt", class: "prompt", ...language }),
        el("p", { id: "hint", class: "hint", text: say(question.multiple ? "choose_all" : "choose_one") }),
        choices),
      error,
      picked ? feedback(question, picked) : null,
      el("div", { class: "actions" }, button));
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      if (state.answers[question.id]) advance();
      else answer(question, form, error);
    });
    stage.replaceChildren(form);
    shownAt = Date.now();
    if (focus === "heading") heading.focus();
    if (focus === "button") button.focus();
  }

  function reviewItem(question, index) {
    const picked = state.answers[question.id];
    const result = verdict(question, picked);
    return el("li", { class: `review-item ${result}` },
      el("h4", {}, say("question", { number: index + 1 }), " ", el("span", { class: "verdict", text: say(result) })),
      rich("div", question.prompt, { class: "prompt", lang: question.lang, dir: question.dir }),
      answerList(question, picked),
      explanation(question));
  }

  function showResults(focus) {
    const result = totals();
    const outcome = result.passed === null ? say("completed")
      : say(result.passed ? "passed" : "failed", { pass: percents.format(passMark / 100) });
    const score = say("score", { score: numbers.format(result.earned), total: numbers.format(result.max),
      percent: percents.format(result.percent / 100) });
    const heading = el("h2", { id: "results-heading", tabindex: "-1", text: say("results") });
    const status = result.passed === null ? "completed" : result.passed ? "passed" : "failed";
    stage.replaceChildren(el("section", { class: "results", "aria-labelledby": "results-heading" },
      heading,
      el("p", { class: `summary ${status}`, text: outcome }),
      el("p", { class: "score", text: score }),
      el("h3", { text: say("review") }),
      el("ol", { class: "review" }, ...questions.map(reviewItem))));
    if (focus) heading.focus();
    announce(`${outcome} ${score}`);
  }

  /* ---- The flow ---- */

  function save() {
    if (!lms) return;
    runtime.progress(lms, { location: state.index + 1, suspendData: suspendData(),
      answered: Object.keys(state.answers).length, total: questions.length });
    lms.commit();
  }

  function record(question, picked) {
    if (!lms) return;
    runtime.record(lms, interactions, {
      id: question.interaction, response: picked, correct: correctIds(question),
      correctly: verdict(question, picked) === "correct", weighting: question.points,
      latency: Date.now() - shownAt, time: new Date(),
      description: question.description, lang: question.lang || data.lang,
    });
    interactions += 1;
  }

  function answer(question, form, error) {
    const checked = new Set([...form.querySelectorAll("input[name=answer]:checked")].map((input) => input.value));
    // In the order of the source, whatever order the options were shown in.
    const picked = question.choices.filter((choice) => checked.has(choice.id)).map((choice) => choice.id);
    if (!picked.length) {
      error.textContent = say("answer_first");
      error.hidden = false;
      error.setAttribute("role", "alert");
      return;
    }
    state.answers[question.id] = picked;
    record(question, picked);
    if (data.feedback !== "immediate") {
      advance();
      return;
    }
    save();
    showQuestion("button");
    announce(document.getElementById("feedback").innerText);
  }

  function advance() {
    state.index += 1;
    if (state.index >= questions.length) {
      finish();
      return;
    }
    save();
    showQuestion("heading");
  }

  function finish() {
    if (lms) {
      runtime.finish(lms, { ...totals(), suspendData: suspendData() });
      lms.commit();
      end();
    }
    showResults(true);
  }

  /** Terminate exactly once: when the quiz is done, or when the page goes away. */
  function end() {
    if (!lms || ended) return;
    ended = true;
    runtime.end(lms, Date.now() - startedAt);
    lms.call("terminate", "");
  }

  const startedAt = Date.now();
  let shownAt = startedAt;
  let ended = false;
  let interactions = 0;
  let passMark = data.passMark ?? null;
  let state = null;
  const lms = ns.connect(runtime, (code) => showNotice(say("save_failed", { code }), true));

  if (lms) {
    const launch = runtime.begin(lms, passMark !== null);
    if (launch.passMark !== null) passMark = launch.passMark;
    interactions = launch.interactions;
    state = launch.suspendData ? restore(launch.suspendData) : null;
    if (state && state.index < questions.length) showNotice(say("resumed"));
  } else {
    showNotice(say("not_saved"));
  }
  const resumed = state !== null;
  state = state || freshState();
  if (data.description) document.getElementById("description").append(rich("div", data.description));
  window.addEventListener("pagehide", end);
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "hidden" && lms && !ended) lms.commit();
  });
  if (state.index < questions.length) {
    save();
    showQuestion(null);
  } else if (resumed) {
    showResults(false);
  } else {
    finish();
  }
})(window.lmsexport = window.lmsexport || {});
