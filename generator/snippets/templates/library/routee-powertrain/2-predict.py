import pandas as pd
from routee.powertrain.registry.hf import HFRegistry

# This repository is a library of vehicle energy models, addressed as make/vehicle/year/config/version
registry = HFRegistry(repo_id={{ id | py }})
print(registry.query(make="toyota"))

model_id = registry.list_models()[0]  # or pick one from the query above
model = registry.load(model_id)
print(model)  # shows the input features the model expects

# Energy use over three road links; the columns must match the features printed above
links = pd.DataFrame(
    {
        "distance_mi": [0.1, 0.2, 0.3],
        "speed_mph": [30, 40, 50],
        "grade_pct": [-5.0, 0.0, 5.0],
    }
)
print(model.predict(links))
