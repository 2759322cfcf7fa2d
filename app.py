"""`panel serve app.py` runs this file once per browser session: each session gets its own lab."""

from labs.frame.shell import create_app

create_app().servable(title="LLM Serving Lab")
