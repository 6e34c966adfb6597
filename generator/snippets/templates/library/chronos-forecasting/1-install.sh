pip install -U chronos-forecasting
