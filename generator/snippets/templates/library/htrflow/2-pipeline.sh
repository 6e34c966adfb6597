{#- HTRflow runs YAML pipelines; this model takes the step that matches its task
    and the other step uses a Riksarkivet model. -#}
{% set detector = pipeline_tag in ["object-detection", "image-segmentation"] %}
# A pipeline: find the text lines, read them, order them, export the text
cat > pipeline.yaml <<'YAML'
steps:
-   step: Segmentation
    settings:
        model: yolo
        model_settings:
            model: {{ (id if detector else "Riksarkivet/yolov9-lines-within-regions-1") | sh }}
-   step: TextRecognition
    settings:
        model: TrOCR
        model_settings:
            model: {{ ("Riksarkivet/trocr-base-handwritten-hist-swe-2" if detector else id) | sh }}
-   step: OrderLines
-   step: Export
    settings:
        format: txt
        dest: outputs
YAML

htrflow pipeline pipeline.yaml page.jpg  # your scanned page, or a folder of pages
