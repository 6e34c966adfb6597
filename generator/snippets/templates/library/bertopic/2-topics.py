{% import "shared/inputs.jinja" as inputs %}
from bertopic import BERTopic

topic_model = BERTopic.load({{ id | py }})

topics, probabilities = topic_model.transform([{{ inputs.text("The midfielder scored a late equaliser.") }}])
print(topic_model.get_topic_info(topics[0]))
