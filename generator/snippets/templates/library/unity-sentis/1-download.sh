# Sentis models run inside Unity (C#). Download the model files into your project's Assets folder:
hf download {{ id | sh }} --local-dir Assets/Models

# Then, in a C# script (Unity package com.unity.sentis), assign the imported .sentis or .onnx file
# to a ModelAsset field in the Inspector and run it:
#
#   using Unity.Sentis;
#   using UnityEngine;
#
#   public class RunModel : MonoBehaviour
#   {
#       public ModelAsset modelAsset;
#
#       void Start()
#       {
#           Model model = ModelLoader.Load(modelAsset);
#           using Worker worker = new Worker(model, BackendType.GPUCompute);
#           using Tensor<float> input = new Tensor<float>(model.inputs[0].shape.ToTensorShape());
#           worker.Schedule(input);
#           Tensor<float> output = worker.PeekOutput() as Tensor<float>;
#           Debug.Log(output.shape);
#       }
#   }
#
# See the repository's README and C# files for the input format of {{ id | comment }}.
