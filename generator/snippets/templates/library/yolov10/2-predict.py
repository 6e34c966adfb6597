{#- YOLOv10 (THU-MIG fork of ultralytics): the class is a Hub mixin. -#}
from ultralytics import YOLOv10

model = YOLOv10.from_pretrained({{ id | py }})

{{ inputs.image_file }}
results = model.predict(source=image)
results[0].show()
