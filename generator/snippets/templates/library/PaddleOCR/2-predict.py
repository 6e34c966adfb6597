{% set name = id | split("/") | last %}
{% set lname = name | lower %}
{% if "paddleocr-vl" in lname %}
{% set cls = "PaddleOCRVL" %}
{% elif name is endingwith("_det") %}
{% set cls = "TextDetection" %}
{% elif name is endingwith("_rec") %}
{% set cls = "TextRecognition" %}
{% elif "textline_ori" in lname %}
{% set cls = "TextLineOrientationClassification" %}
{% elif "doc_ori" in lname %}
{% set cls = "DocImgOrientationClassification" %}
{% elif "uvdoc" in lname %}
{% set cls = "TextImageUnwarping" %}
{% elif "layout" in lname %}
{% set cls = "LayoutDetection" %}
{% else %}
{% set cls = none %}
{% endif %}
{% if cls == "PaddleOCRVL" %}
from paddleocr import PaddleOCRVL

# Document parsing pipeline (layout analysis + the PaddleOCR-VL recognizer)
pipeline = PaddleOCRVL()

{{ inputs.image_file }}
for res in pipeline.predict(image):
    res.print()
    res.save_to_json(save_path="output")
    res.save_to_markdown(save_path="output")
{% elif cls %}
from paddleocr import {{ cls }}

# The module downloads this model by name
model = {{ cls }}(model_name={{ name | py }})

{{ inputs.image_file }}
for res in model.predict(image, batch_size=1):
    res.print()
    res.save_to_img(save_path="output")
    res.save_to_json(save_path="output/result.json")
{% else %}
from paddleocr import PaddleOCR

# Module type not recognized from the model name; this runs the full OCR pipeline.
ocr = PaddleOCR(use_doc_orientation_classify=False, use_doc_unwarping=False, use_textline_orientation=False)

{{ inputs.image_file }}
for res in ocr.predict(image):
    res.print()
    res.save_to_img(save_path="output")
    res.save_to_json(save_path="output")
{% endif %}
