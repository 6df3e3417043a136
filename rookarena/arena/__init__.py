"""Where bots run: processes, the referee, matches, leagues, the worker pool, config and check-bot.

The only code with processes and clocks in it.
"""
