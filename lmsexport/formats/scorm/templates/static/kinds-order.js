/* lmsexport quiz player: matching (a drop-down per left item) and ordering (move up / down).
 *
 * The kind interface is described in kinds-choice.js. Matching earns a share per pair
 * matched right; ordering a share per item in its right place (player.js makes either all or
 * nothing when the question is scored so). Both work with the keyboard alone: a select
 * is a native control, and ordering moves items with buttons, not by dragging.
 */
(function (ns) {
  "use strict";

  const { el, rich, say } = ns;
  const collator = new Intl.Collator(ns.data.lang);
  const optionOf = (question, id) => question.options.find((option) => option.id === id);

  /** Pairs as "left → right" lines; a left item without an answer says so. */
  function pairList(question, chosen) {
    return el("ul", { class: "pairs", ...ns.language(question) }, ...question.pairs.map((pair) => {
      const option = optionOf(question, chosen[pair.id]);
      return el("li", {}, rich("span", pair.left), el("span", { class: "arrow", "aria-hidden": "true", text: " → " }),
        option ? rich("span", option.text) : el("span", { class: "none", text: say("no_answer") }));
    }));
  }

  const key = (question) => Object.fromEntries(question.pairs.map((pair) => [pair.id, pair.option]));

  ns.kinds.matching = {
    /** Without shuffle the right-hand items are in alphabetical order: the order written would give pairs away. */
    lists: (question) => ({ "": question.options.slice().sort((a, b) => collator.compare(a.label, b.label))
      .map((option) => option.id) }),
    hint: () => say("match_each"),
    render(question, view) {
      const options = view.order("").map((id) => optionOf(question, id));
      const chosen = view.answer || {};
      return el("div", { class: "matches", ...ns.language(question) }, ...question.pairs.map((pair) => {
        const left = `left-${pair.id}`;
        const select = ns.select(options, chosen[pair.id] || "", { class: "match-select", name: pair.id,
          "aria-labelledby": left, disabled: view.locked });
        return el("div", { class: "match" }, rich("span", pair.left, { id: left, class: "match-left" }),
          el("span", { class: "match-control" }, select, view.locked ? ns.mark(chosen[pair.id] === pair.option) : null));
      }));
    },
    read(question, form) {
      const answer = {};
      for (const select of form.querySelectorAll(".match-select")) {
        if (select.value) answer[select.name] = select.value;
      }
      return Object.keys(answer).length ? { answer } : { error: "answer_first" };
    },
    credit: (question, chosen) =>
      question.pairs.filter((pair) => chosen[pair.id] === pair.option).length / question.pairs.length,
    remarks: () => [],
    given: (question, chosen) => pairList(question, chosen),
    expected: (question) => pairList(question, key(question)),
    interaction: (question, chosen) => ({
      type: "matching",
      response: question.pairs.filter((pair) => chosen[pair.id]).map((pair) => [pair.id, chosen[pair.id]]),
      correct: [question.pairs.map((pair) => [pair.id, pair.option])],
    }),
    encode: (chosen) => chosen,
    decode(question, raw) {
      if (!raw || typeof raw !== "object") return null;
      const answer = {};
      for (const pair of question.pairs) {
        if (optionOf(question, raw[pair.id])) answer[pair.id] = raw[pair.id];
      }
      return Object.keys(answer).length ? answer : null;
    },
  };

  /* ---- Ordering ---- */

  const itemOf = (question, id) => question.items.find((item) => item.id === id);
  const itemList = (question, ids) => el("ol", { class: "ordered", ...ns.language(question) },
    ...ids.map((id) => rich("li", itemOf(question, id).text)));

  function moveButton(direction, textId) {
    const id = `${textId}-${direction}`;
    return el("button", { type: "button", class: `move ${direction}`, "data-move": direction, id,
      "aria-labelledby": `${id} ${textId}`, title: say(`move_${direction}`) },
      el("span", { "aria-hidden": "true", text: direction === "up" ? "↑" : "↓" }),
      el("span", { class: "visually-hidden", text: say(`move_${direction}`) }));
  }

  /** Up and down are disabled at the ends, so a learner hears where an item can still go. */
  function refresh(list) {
    const rows = [...list.children];
    rows.forEach((row, index) => {
      row.querySelector(".up").disabled = index === 0;
      row.querySelector(".down").disabled = index === rows.length - 1;
    });
  }

  function move(list, row, direction, view) {
    const sibling = direction === "up" ? row.previousElementSibling : row.nextElementSibling;
    if (!sibling) return;
    if (direction === "up") sibling.before(row);
    else sibling.after(row);
    refresh(list);
    // Focus stays with the item; at an end, on the button that can still move it.
    const same = row.querySelector(`.${direction}`);
    (same.disabled ? row.querySelector(direction === "up" ? ".down" : ".up") : same).focus();
    const position = [...list.children].indexOf(row) + 1;
    view.announce(say("moved", { item: row.querySelector(".item-text").textContent.trim(), position,
      total: list.children.length }));
  }

  ns.kinds.ordering = {
    scramble: true,
    lists: (question) => ({ "": question.items.map((item) => item.id) }),
    hint: () => say("order_items"),
    render(question, view) {
      const ids = view.answer || view.order("");
      const list = el("ol", { class: "order", ...ns.language(question) }, ...ids.map((id) => {
        const textId = `item-${id}`;
        return el("li", { class: "order-item", "data-id": id },
          rich("span", itemOf(question, id).text, { id: textId, class: "item-text" }),
          view.locked ? null : el("span", { class: "moves" }, moveButton("up", textId), moveButton("down", textId)));
      }));
      if (!view.locked) {
        refresh(list);
        list.addEventListener("click", (event) => {
          const button = event.target.closest("button[data-move]");
          if (button) move(list, button.closest("li"), button.dataset.move, view);
        });
      }
      return list;
    },
    read: (question, form) => ({ answer: [...form.querySelectorAll(".order-item")].map((row) => row.dataset.id) }),
    credit: (question, ids) =>
      question.items.filter((item, index) => ids[index] === item.id).length / question.items.length,
    remarks: () => [],
    given: (question, ids) => itemList(question, ids),
    expected: (question) => itemList(question, question.items.map((item) => item.id)),
    interaction: (question, ids) => ({ type: "sequencing", response: ids,
      correct: [question.items.map((item) => item.id)] }),
    encode: (ids) => ids.join(","),
    decode(question, raw) {
      const ids = typeof raw === "string" ? raw.split(",") : [];
      const complete = ids.length === question.items.length && new Set(ids).size === ids.length
        && ids.every((id) => itemOf(question, id));
      return complete ? ids : null;
    },
  };
})(window.lmsexport = window.lmsexport || {});
