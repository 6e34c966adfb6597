{{ llama.start_server }}
# Then, in another terminal, install Pi:
npm install -g @mariozechner/pi-coding-agent
# Add the server to ~/.pi/agent/models.json:
# {"providers": {"llama-cpp": {"baseUrl": "http://localhost:8080/v1", "api": "openai-completions", "apiKey": "none", "models": [{"id": {{ model_ref | js | comment }}}]}}}
# and start Pi in your project folder:
pi
