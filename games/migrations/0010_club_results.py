# Club match results typed in (issue 8): the audit beside the ledger's club rows.
# Named 0010 and depending on 0008 for now: a 0009 is being written beside it; when both
# land, this one's dependency becomes that 0009 (or makemigrations --merge).

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0009_ratings_fillfactor'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name='ClubResult',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('source_key', models.CharField(max_length=64, unique=True, verbose_name='source key')),
                ('length', models.PositiveSmallIntegerField(verbose_name='match length')),
                ('played_at', models.DateTimeField(verbose_name='played')),
                ('entered_at', models.DateTimeField(verbose_name='typed in')),
                ('corrected_at', models.DateTimeField(blank=True, null=True, verbose_name='last corrected')),
                ('voided_at', models.DateTimeField(blank=True, null=True, verbose_name='voided')),
                ('corrected_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='last corrected by')),
                ('entered_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='typed in by')),
                ('player1', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to='games.player', verbose_name='player 1')),
                ('player2', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to='games.player', verbose_name='player 2')),
                ('voided_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='voided by')),
                ('winner', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to='games.player', verbose_name='winner')),
            ],
            options={
                'verbose_name': 'club result',
                'verbose_name_plural': 'club results',
                'ordering': ['-played_at', '-id'],
                'constraints': [models.CheckConstraint(condition=models.Q(('player1', models.F('player2')), _negated=True), name='clubresult_two_players'), models.CheckConstraint(condition=models.Q(('winner', models.F('player1')), ('winner', models.F('player2')), _connector='OR'), name='clubresult_winner_plays'), models.CheckConstraint(condition=models.Q(('length__gte', 1), ('length__lte', 64)), name='clubresult_length')],
            },
        ),
    ]
