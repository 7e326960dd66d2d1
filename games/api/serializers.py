from rest_framework import serializers

from games.models import Player


class PlayerOutput(serializers.ModelSerializer):
    class Meta:
        model = Player
        fields = ["id", "name", "rating", "experience", "is_active"]
        read_only_fields = fields
