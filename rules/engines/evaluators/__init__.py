"""Hand evaluators: stud (best five of seven), stud boards, Capsa rows, Forty-one (pure Python)."""
