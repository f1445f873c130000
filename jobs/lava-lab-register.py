# jobs/lava-lab-register.py — run inside lava-server's Django (`lava-server manage shell -c`) by
# jobs/lava-lab.sh: one Django start instead of one per `lava-server manage` call (~3 s each).
# Idempotent: creates what is missing and prints, as one JSON line, whether the schema needs
# migrating and the two tokens the lab needs. Reads LAB_WORKER, LAB_DEVICE, LAB_DEVICE_TYPE,
# LAB_USER from the environment.
import json
import os
import secrets

from django.contrib.auth.models import User
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

out = {}
executor = MigrationExecutor(connection)
if executor.migration_plan(executor.loader.graph.leaf_nodes()):
    out["migrate"] = True
else:
    from lava_scheduler_app.models import Device, DeviceType, Worker
    from linaro_django_xmlrpc.models import AuthToken

    added = []
    worker, created = Worker.objects.get_or_create(
        hostname=os.environ["LAB_WORKER"],
        defaults={"description": "suspend-rig local lab worker", "health": Worker.HEALTH_ACTIVE},
    )
    if created:
        added.append("worker " + worker.hostname)
    dtype, created = DeviceType.objects.get_or_create(name=os.environ["LAB_DEVICE_TYPE"])
    if created:
        added.append("device type " + dtype.name)
    device, created = Device.objects.get_or_create(
        hostname=os.environ["LAB_DEVICE"],
        defaults={
            "device_type": dtype,
            "worker_host": worker,
            "state": Device.STATE_IDLE,
            "health": Device.HEALTH_GOOD,
            "description": "suspend-rig QEMU board (boards/qemu.yaml)",
        },
    )
    if created:
        added.append("device " + device.hostname)
    user, created = User.objects.get_or_create(username=os.environ["LAB_USER"])
    if created:
        user.set_password(secrets.token_urlsafe(24))
        user.save()
        added.append("user " + user.username)
    token = AuthToken.objects.filter(user=user, description="suspend-rig").first()
    if token is None:
        token = AuthToken.objects.create(user=user, description="suspend-rig")
        added.append("API token of " + user.username)
    out.update(
        {
            "added": added,
            "worker_token": worker.token,
            "rig_token": token.secret,
            "device": "%s %s"
            % (device.get_state_display(), device.get_health_display()),
        }
    )
print(json.dumps(out))
