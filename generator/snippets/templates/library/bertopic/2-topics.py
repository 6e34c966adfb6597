from bertopic import BERTopic

topic_model = BERTopic.load({{ id | py }})

topics, probabilities = topic_model.transform([{{ (widget_text or "The midfielder scored a late equaliser.") | py }}])
print(topic_model.get_topic_info(topics[0]))
