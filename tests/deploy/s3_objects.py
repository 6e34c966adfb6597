"""Lists the objects of an S3 bucket as JSON, for the deploy tests.

Usage: s3_objects.py ENDPOINT BUCKET (--create | --list | --headers | --put KEY | --put-tree DIR PREFIX | --delete KEY...)

Credentials come from the AWS_* environment variables, as for any S3
client. --create makes the bucket. --list prints [{"key", "size", "md5"}],
the MD5 of each object's bytes as the server computed it (the ETag of an
object uploaded whole). --headers adds each object's "content_type" and
"cache_control", one HEAD request per object. --put stores standard input
as KEY (a file someone else put there); --put-tree stores every file under
DIR as PREFIX/<its path>; --delete removes the KEYs.
"""

import json
import os
import sys

import boto3


def main() -> None:
    endpoint, bucket, mode = sys.argv[1], sys.argv[2], sys.argv[3]
    s3 = boto3.client("s3", endpoint_url=endpoint, region_name="us-east-1")
    if mode == "--create":
        s3.create_bucket(Bucket=bucket)
        return
    if mode == "--put":
        s3.put_object(Bucket=bucket, Key=sys.argv[4], Body=sys.stdin.buffer.read())
        return
    if mode == "--put-tree":
        root, prefix = sys.argv[4], sys.argv[5]
        for folder, _, names in os.walk(root):
            for name in names:
                path = os.path.join(folder, name)
                key = prefix + "/" + os.path.relpath(path, root).replace(os.sep, "/")
                with open(path, "rb") as body:
                    s3.put_object(Bucket=bucket, Key=key, Body=body.read())
        return
    if mode == "--delete":
        for key in sys.argv[4:]:
            s3.delete_object(Bucket=bucket, Key=key)
        return
    objects = []
    for page in s3.get_paginator("list_objects_v2").paginate(Bucket=bucket):
        for item in page.get("Contents", []):
            found = {"key": item["Key"], "size": item["Size"], "md5": item["ETag"].strip('"')}
            if mode == "--headers":
                head = s3.head_object(Bucket=bucket, Key=item["Key"])
                found["content_type"] = head.get("ContentType")
                found["cache_control"] = head.get("CacheControl")
            objects.append(found)
    json.dump(objects, sys.stdout)


if __name__ == "__main__":
    main()
