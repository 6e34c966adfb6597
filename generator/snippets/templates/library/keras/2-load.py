import keras

model = keras.saving.load_model({{ ("hf://" ~ id) | py }})
model.summary()
