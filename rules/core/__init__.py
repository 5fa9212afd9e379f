"""What every game shares: the game description the registry lists, seats, pots, the house take and the
typed view a croupier's screen reads (DESIGN.md "rules/", issue 14)."""
