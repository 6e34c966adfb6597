pip install git+https://github.com/SAP-samples/sap-rpt-1-oss
