"""See a quiz before it is uploaded: `lmsexport preview`, the answer key, `build --watch`.

Not a format: this package sits above the formats and reaches them only through the
registry (`lmsexport.formats`), as the build machinery does.

- `quizzes`: every source given, read, written in every flavour and linted, kept up to
  date as files change (what the preview shows);
- `server`: the local web server (127.0.0.1 only) with its pages and server-sent events;
- `pages`: the pages' one Jinja2 environment; `key`: the printable answer key;
- `assets`: the files the pages load, scorm-again (the SCORM runtime hosting the player) among them;
- `watch`: the file watcher (watchfiles) behind the live preview and `build --watch`.
"""
