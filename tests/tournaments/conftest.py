import pytest

from tests.tournaments.factories import DirectorFactory, EventFactory


@pytest.fixture
def director():
    return DirectorFactory()


@pytest.fixture
def event(director):
    return EventFactory(director=director)
