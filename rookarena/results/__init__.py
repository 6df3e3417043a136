"""Records in, figures out: the results directory, standings, statistics, ratings, the SPRT and tables."""
