"""The rule sets: scoring one hand (``POST /api/score``), listing them (``GET /api/rulesets``), and the schemas of
a hand, a win, options and house rules that evenings and groups take too."""
