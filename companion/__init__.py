"""Pure rules engine for Trails of Tucana: moves, the game as a fold over its log, scoring, log store."""
