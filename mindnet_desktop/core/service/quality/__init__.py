"""How well search serves this user: their ratings (the feedback term) and probes that
measure hit@k on their own vault."""
