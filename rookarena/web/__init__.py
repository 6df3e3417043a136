"""The results for people: a self-contained HTML report, a replay viewer, and a game as terminal text.

``index`` keeps what the report needs of each game as the records stream past (pure), ``model`` turns
records and that index into the page's data (pure), ``text`` draws one game for a terminal (pure),
``page`` renders the jinja2 template around that data, and ``sources`` reads a results directory (the
records in one pass or by offset, one game found by searching, league settings, stderr logs,
timestamps) for the CLI.
"""
