"""Templates and assets of the HTML plan report (plan_html.py); data files, no code."""
