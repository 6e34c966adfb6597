from nobg import AutoModel

model = AutoModel.from_pretrained({{ id | py }})

{{ inputs.image_file }}
# Loads, preprocesses, predicts the alpha matte and returns an RGBA cutout
cutout = model.process(image)
cutout.save("cutout.png")
