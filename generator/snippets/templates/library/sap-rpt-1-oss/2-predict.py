{% if pipeline_tag == "tabular-regression" %}
from sklearn.datasets import load_diabetes
from sklearn.metrics import r2_score
from sklearn.model_selection import train_test_split

from sap_rpt_oss import SAP_RPT_OSS_Regressor

X, y = load_diabetes(return_X_y=True, as_frame=True)
X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.5, random_state=0)

# The checkpoint of {{ id | comment }} is downloaded on first use.
# A small context and no bagging keep GPU memory low; 8192 and 8 give the best results.
regressor = SAP_RPT_OSS_Regressor(max_context_size=2048, bagging=1)
regressor.fit(X_train, y_train)  # in-context learning: fit only stores the rows used as context
predictions = regressor.predict(X_test)
print("R2:", r2_score(y_test, predictions))
{% else %}
from sklearn.datasets import load_breast_cancer
from sklearn.metrics import accuracy_score
from sklearn.model_selection import train_test_split

from sap_rpt_oss import SAP_RPT_OSS_Classifier

X, y = load_breast_cancer(return_X_y=True, as_frame=True)
X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.5, random_state=0)

# The checkpoint of {{ id | comment }} is downloaded on first use.
# A small context and no bagging keep GPU memory low; 8192 and 8 give the best results.
classifier = SAP_RPT_OSS_Classifier(max_context_size=2048, bagging=1)
classifier.fit(X_train, y_train)  # in-context learning: fit only stores the rows used as context
predictions = classifier.predict(X_test)
print("Accuracy:", accuracy_score(y_test, predictions))
{% endif %}
