/* lmsexport preview: reload this page when what it shows changes.
 *
 * The server sends a `change` event (server-sent events, /events) with the slugs of the
 * quizzes whose source changed; `<body data-watch>` names the one this page shows (`*`: any,
 * for the index). No polling: the browser keeps the one stream open, and reconnects by itself
 * when the server comes back, which reloads the page too (it may have missed a change).
 */
(function () {
  "use strict";

  const watched = document.body.dataset.watch;
  const events = new EventSource("/events");
  let lost = false;
  events.addEventListener("change", (event) => {
    let slugs = [];
    try {
      slugs = JSON.parse(event.data);
    } catch (error) {
      return;
    }
    if (watched === "*" || slugs.includes(watched) || slugs.includes("*")) window.location.reload();
  });
  events.addEventListener("error", () => { lost = true; });
  events.addEventListener("open", () => { if (lost) window.location.reload(); });
})();
