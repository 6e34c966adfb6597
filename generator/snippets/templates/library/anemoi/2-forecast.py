import datetime

from anemoi.inference.runners.simple import SimpleRunner

# Fetches the checkpoint from the Hub
runner = SimpleRunner({"huggingface": {{ id | py }}}, device="cuda")

# Initial conditions: the analysis time and one numpy array per input field
# on the model's grid (for example from ECMWF open data).
date = datetime.datetime(2024, 6, 1, 0)  # time of your initial conditions
fields = {}  # your fields, e.g. fields["2t"] = array of shape (2, n_grid_points)
input_state = dict(date=date, fields=fields)

for state in runner.run(input_state=input_state, lead_time=12):  # hours
    print(state["date"], sorted(state["fields"])[:5])
