"""The results for people: a self-contained HTML report, a replay viewer, and a game as terminal text.

``model`` turns records into the page's data (pure), ``text`` draws one game for a terminal (pure),
``page`` renders the jinja2 template around that data, and ``sources`` reads a results directory
(league settings, stderr logs, timestamps) for the CLI.
"""
